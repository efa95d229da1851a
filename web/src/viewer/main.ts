// The viewer page: embedded by the environment in an iframe, driven by window messages (spec 001 §7).
import '../zod-config.ts';
import './ui/viewer.css';
import { parseViewerMessage, postToParent } from './messaging.ts';
import { ViewerApp } from './viewer-app.ts';

const root = document.getElementById('viewer-root');
if (!root) throw new Error('#viewer-root is missing from viewer.html');

let app: ViewerApp | null = null;
try {
  app = new ViewerApp(root, {
    event: (event) => postToParent({ type: 'viewer-event', event }),
    sync: (state) => postToParent({ type: 'viewer-animation-sync', ...state }),
  });
} catch (err) {
  // No WebGL (disabled, blocklisted GPU): say so instead of a blank frame; messages are then ignored.
  console.error('viewer: could not start', err);
  root.innerHTML = '';
  const box = document.createElement('div');
  box.className = 'fl-status';
  box.textContent = 'The 3D viewer needs WebGL 2, which this browser does not provide.';
  root.appendChild(box);
}

window.addEventListener('message', (event: MessageEvent) => {
  const outcome = parseViewerMessage(event, window.location.origin);
  if (!outcome.ok) {
    // Our own outgoing messages come back here when the viewer is opened on its own; ignore quietly.
    if (event.source !== window) console.warn(`viewer: ${outcome.reason}`);
    return;
  }
  if (outcome.command.type === 'parent-hello') {
    postToParent({ type: 'viewer-ready' });
    return;
  }
  try {
    app?.handle(outcome.command);
  } catch (err) {
    console.error('viewer: command failed', err);
  }
});

// Read by the benchmark and the browser tests (same origin only).
Object.assign(window, {
  fieldlineViewer: { stats: () => app?.statsSnapshot, shown: (i?: number) => app?.shown(i), app },
});

postToParent({ type: 'viewer-ready' });
