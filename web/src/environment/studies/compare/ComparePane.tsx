import type { FieldSelection } from '@fieldline/contracts';
import { useEffect, useRef, useState } from 'react';
import type { ViewerPayload } from '../../../results-format/index.ts';
import { VIEWER_URL } from '../../viewer-bridge/ViewerFrame.tsx';
import { ViewerBridge } from '../../viewer-bridge/viewer-bridge.ts';
import { AnimationControls } from '../../visualization/AnimationControls.tsx';
import type { CameraLink } from './camera-link.ts';
import type { Range } from './compare-fields.ts';

/**
 * One viewer pane of a comparison: its own viewer page and bridge, loaded with one result (typed arrays
 * decoded from results.bin, never JSON text), coloured by `field` over `range` (null: the field's own), its
 * camera linked to the other panes'. Reports the data range of the field it colours by.
 */
export function ComparePane(props: {
  testId: string;
  title: string;
  payload: ViewerPayload;
  field: string;
  range: Range | null;
  link: CameraLink;
  onDataRange?: (field: string, range: Range) => void;
  /** show the animation controls for the payload's frames (the difference pane) */
  animated?: boolean;
}) {
  const { testId, payload, field, range, link } = props;
  const frame = useRef<HTMLIFrameElement>(null);
  const [bridge, setBridge] = useState<ViewerBridge | null>(null);
  const onDataRange = useRef(props.onDataRange);
  onDataRange.current = props.onDataRange;

  useEffect(() => {
    if (!frame.current) return;
    const b = new ViewerBridge();
    const detach = b.attach(frame.current);
    const off = b.onMessage((m) => {
      if (m.type !== 'viewer-event') return;
      const e = m.event;
      if (e.kind === 'camera') link.moved(testId, e.camera);
      else if (e.kind === 'legend') onDataRange.current?.(e.field, { min: e.dataMin, max: e.dataMax });
    });
    const leave = link.join(testId, (camera) => b.call('setCamera', camera));
    setBridge(b);
    return () => {
      leave();
      off();
      detach();
      setBridge(null);
    };
  }, [link, testId]);

  useEffect(() => {
    if (!bridge) return;
    bridge.loadMesh(payload);
    bridge.call('setSyncEvents', true);
    // a pane opened later (the difference) starts where the others' camera is
    if (link.last) bridge.call('setCamera', link.last);
  }, [bridge, payload, link]);

  useEffect(() => {
    if (!bridge || !field) return;
    const selection: FieldSelection = { name: field, display: 'magnitude' };
    bridge.call('setField', selection);
  }, [bridge, field]);

  useEffect(() => {
    bridge?.call('setColorRange', range?.min ?? null, range?.max ?? null);
  }, [bridge, range?.min, range?.max]);

  return (
    <figure className="compare-pane" data-testid={testId}>
      <figcaption>{props.title}</figcaption>
      <iframe ref={frame} src={VIEWER_URL} title={props.title} className="compare-frame" />
      {props.animated && bridge && (payload.animation?.frames.length ?? 0) > 0 && (
        <AnimationControls frameCount={payload.animation?.frames.length ?? 0} bridge={bridge} />
      )}
    </figure>
  );
}
