import { ANALYSIS_BOUNDS } from '@fieldline/contracts';
import { useEffect, useState } from 'react';
import { useServices } from '../state/EnvironmentContext.tsx';
import { Slider } from '../ui/fields.tsx';
import { NextFrameIcon, PauseIcon, PlayIcon, PreviousFrameIcon } from '../ui/icons.tsx';
import type { ViewerBridge } from '../viewer-bridge/viewer-bridge.ts';

const speed = ANALYSIS_BOUNDS.animationSpeedFps;

/**
 * Play/pause, previous/next frame, frame slider and speed; synced from viewer-animation-sync. `bridge`: the
 * viewer they drive (default the environment's; a comparison's difference pane passes its own).
 */
export function AnimationControls(props: { frameCount: number; bridge?: ViewerBridge }) {
  const { frameCount } = props;
  const services = useServices();
  const bridge = props.bridge ?? services.bridge;
  const [frame, setFrame] = useState(0);
  const [total, setTotal] = useState(frameCount);
  const [playing, setPlaying] = useState(false);
  const [fps, setFps] = useState<number>(speed.default);
  useEffect(
    () =>
      bridge.onMessage((m) => {
        if (m.type !== 'viewer-animation-sync') return;
        setFrame(m.currentFrame);
        setTotal(m.totalFrames);
        setPlaying(m.playing);
      }),
    [bridge],
  );
  useEffect(() => setTotal(frameCount), [frameCount]);
  return (
    <div className="viz-group animation" data-testid="animation-controls">
      <div className="transport">
        <button
          type="button"
          className="icon"
          title="Previous frame"
          aria-label="Previous frame"
          onClick={() => bridge.call('previousFrame')}
        >
          <PreviousFrameIcon />
        </button>
        <button
          type="button"
          className="icon play"
          title={playing ? 'Pause' : 'Play'}
          aria-label={playing ? 'Pause' : 'Play'}
          onClick={() => {
            bridge.call(playing ? 'pauseAnimation' : 'playAnimation');
            setPlaying(!playing);
          }}
        >
          {playing ? <PauseIcon /> : <PlayIcon />}
        </button>
        <button
          type="button"
          className="icon"
          title="Next frame"
          aria-label="Next frame"
          onClick={() => bridge.call('nextFrame')}
        >
          <NextFrameIcon />
        </button>
        <span className="muted small">
          Frame {Math.min(frame + 1, Math.max(total, 1))} / {total}
        </span>
      </div>
      <Slider
        label="Frame"
        min={0}
        max={Math.max(0, total - 1)}
        step={1}
        value={frame}
        display={String(frame + 1)}
        onChange={(v) => {
          setFrame(v);
          bridge.call('setFrame', v);
        }}
      />
      <Slider
        label="Speed"
        min={speed.min}
        max={speed.max}
        step={0.5}
        value={fps}
        display={`${fps} fps`}
        onChange={(v) => {
          setFps(v);
          bridge.call('setAnimationSpeed', v);
        }}
      />
    </div>
  );
}
