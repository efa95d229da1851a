import { useState } from 'react';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import { Notice } from '../ui/Messages.tsx';
import { problemMarkersToViewer } from '../viewer-bridge/to-viewer-payload.ts';
import { showModel } from '../workflows/show-model.ts';
import { sliverMarkers } from './slivers.ts';

/** Beside the quality report when the volume mesh kept slivers: what and where, and a toggle marking them. */
export function SliverWarning() {
  const { store, deps } = useServices();
  const slivers = useEnv((s) => s.meshing.slivers);
  const mesh = useEnv((s) => s.model?.mesh);
  const [marked, setMarked] = useState(false);
  if (!slivers || !mesh) return null;
  const toggle = () => {
    if (marked) showModel(store.get(), deps.viewer);
    else deps.viewer.loadMesh(problemMarkersToViewer(sliverMarkers(mesh, slivers), [slivers.message]));
    setMarked(!marked);
  };
  return (
    <Notice tone="warn" testId="sliver-warning">
      <p>{slivers.message}</p>
      <button type="button" onClick={toggle} data-testid="mark-slivers">
        {marked ? 'Hide the marks' : 'Mark the slivers on the model'}
      </button>
    </Notice>
  );
}
