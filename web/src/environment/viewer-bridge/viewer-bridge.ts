import {
  ParentToViewerMessage,
  type ViewerFunctionName,
  type ViewerToParentMessage as ViewerMessage,
  ViewerToParentMessage,
} from '@fieldline/contracts';

type OutgoingMessage = ParentToViewerMessage;
type LoadMeshMessage = Extract<OutgoingMessage, { type: 'load-mesh' }>;

/** Calls that set a lasting viewer state; replayed if the viewer page reloads. */
const STATEFUL_CALLS: ReadonlySet<ViewerFunctionName> = new Set([
  'setRenderMode',
  'setFieldMode',
  'setVectorScale',
  'setVectorDensity',
  'setColorMap',
  'setColorRange',
  'setLogScale',
  'setStreamlines',
  'setViewerMode',
  'setSectionAxis',
  'setSectionOffset',
  'setSectionLock',
  'setWheelScrubs',
  'setFacePicking',
  'markFaces',
  'markArrows',
  'setAnimationSpeed',
]);

export interface BridgeLogEntry {
  direction: 'in' | 'out' | 'dropped';
  type: string;
  detail?: string;
  at: number;
}

/**
 * The parent side of the viewer protocol (spec 001 §4 and §7): calls are queued until the viewer
 * reports viewer-ready; incoming messages count only from the embedded viewer's window and origin and
 * only when they match the contract's schema. Outgoing messages are checked against the schema too.
 */
export class ViewerBridge {
  private frame: HTMLIFrameElement | null = null;
  private ready = false;
  private needsReplay = false;
  private queue: OutgoingMessage[] = [];
  private lastLoad: LoadMeshMessage | null = null;
  private settings = new Map<ViewerFunctionName, unknown[]>();
  private listeners = new Set<(message: ViewerMessage) => void>();
  private readyListeners = new Set<(ready: boolean) => void>();
  readonly log: BridgeLogEntry[] = [];

  constructor(
    private readonly win: Window = window,
    readonly expectedOrigin: string = window.location.origin,
  ) {}

  attach(frame: HTMLIFrameElement): () => void {
    this.frame = frame;
    const onMessage = (event: MessageEvent) => this.receive(event);
    const onLoad = () => this.sendNow({ type: 'parent-hello' });
    this.win.addEventListener('message', onMessage);
    frame.addEventListener('load', onLoad);
    return () => {
      this.win.removeEventListener('message', onMessage);
      frame.removeEventListener('load', onLoad);
      if (this.frame === frame) this.frame = null;
      this.setReady(false);
    };
  }

  isReady(): boolean {
    return this.ready;
  }

  onMessage(listener: (message: ViewerMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onReadyChange(listener: (ready: boolean) => void): () => void {
    this.readyListeners.add(listener);
    return () => this.readyListeners.delete(listener);
  }

  loadMesh(payload: Omit<LoadMeshMessage, 'type'>): void {
    const message: LoadMeshMessage = { type: 'load-mesh', ...payload };
    this.lastLoad = message;
    this.post(message);
  }

  call(name: ViewerFunctionName, ...args: unknown[]): void {
    if (STATEFUL_CALLS.has(name)) this.settings.set(name, args);
    if (name === 'clearData') this.lastLoad = null;
    this.post({ type: 'call-function', name, args });
  }

  /** Reloads the viewer page (debug control); state is replayed once it is ready again. */
  reload(): void {
    if (!this.frame) return;
    this.setReady(false);
    this.needsReplay = true;
    this.frame.src = this.frame.src;
  }

  private post(message: OutgoingMessage): void {
    if (!this.validOutgoing(message)) return;
    if (!this.ready) {
      // a newer scene replaces a queued one: only the latest load-mesh matters
      if (message.type === 'load-mesh') this.queue = this.queue.filter((m) => m.type !== 'load-mesh');
      this.queue.push(message);
      return;
    }
    this.sendNow(message);
  }

  private validOutgoing(message: OutgoingMessage): boolean {
    const parsed = ParentToViewerMessage.safeParse(message);
    if (!parsed.success) {
      this.record('dropped', message.type, parsed.error.issues[0]?.message);
      return false;
    }
    return true;
  }

  private sendNow(message: OutgoingMessage): void {
    const target = this.frame?.contentWindow;
    if (!target) return;
    target.postMessage(message, this.expectedOrigin);
    this.record('out', message.type === 'call-function' ? `call ${message.name}` : message.type);
  }

  private receive(event: MessageEvent): void {
    if (!this.frame || event.source !== this.frame.contentWindow) return;
    if (event.origin !== this.expectedOrigin) {
      this.record('dropped', 'foreign origin', event.origin);
      return;
    }
    const parsed = ViewerToParentMessage.safeParse(event.data);
    if (!parsed.success) {
      this.record('dropped', 'invalid message', parsed.error.issues[0]?.message);
      return;
    }
    const message = parsed.data;
    this.record('in', message.type === 'viewer-event' ? `event ${message.event.kind}` : message.type);
    if (message.type === 'viewer-ready') this.handleReady();
    for (const l of this.listeners) l(message);
  }

  private handleReady(): void {
    if (this.ready) return;
    this.setReady(true);
    let pending = this.queue;
    this.queue = [];
    if (this.needsReplay) {
      // the viewer page restarted: the scene and its settings are sent again, then one-shot calls
      this.needsReplay = false;
      if (this.lastLoad) this.sendNow(this.lastLoad);
      for (const [name, args] of this.settings) this.sendNow({ type: 'call-function', name, args });
      pending = pending.filter((m) => m.type === 'call-function' && !STATEFUL_CALLS.has(m.name));
    }
    for (const m of pending) this.sendNow(m);
  }

  private setReady(ready: boolean): void {
    if (this.ready === ready) return;
    this.ready = ready;
    for (const l of this.readyListeners) l(ready);
  }

  private record(direction: BridgeLogEntry['direction'], type: string, detail?: string): void {
    this.log.push({ direction, type, detail, at: Date.now() });
    if (this.log.length > 200) this.log.splice(0, this.log.length - 200);
  }
}
