// The viewer page (its own entry, embedded by the environment in an iframe). The viewer issue builds it.
const root = document.getElementById('viewer-root');
if (root) root.textContent = 'Fieldline viewer';
window.parent?.postMessage({ type: 'viewer-ready' }, window.location.origin);
