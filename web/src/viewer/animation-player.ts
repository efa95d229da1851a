/** Frame playback for time-domain snapshots and time-harmonic phase frames (spec 001 §4 Animation). */
export const DEFAULT_FPS = 3;
export const MIN_FPS = 0.5;
export const MAX_FPS = 10;

export interface PlayerState {
  currentFrame: number;
  totalFrames: number;
  playing: boolean;
}

export class AnimationPlayer {
  private frame = 0;
  private total = 0;
  private playingNow = false;
  private fpsValue = DEFAULT_FPS;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Mode-shape animation: playing oscillates the current frame instead of stepping through frames. */
  private oscillating = false;
  private phase = 0;

  constructor(
    /** shows a frame; called on every change */
    private readonly showFrame: (frame: number) => void,
    /** reports the state to the parent (viewer-animation-sync) */
    private readonly sync: (state: PlayerState) => void,
    /** the oscillation's phase (radians) while a mode shape plays; 0 when it stops */
    private readonly showPhase: (phase: number) => void = () => {},
  ) {}

  /** Frames that are mode shapes (the `mode` axis): play swings the chosen one back and forth. */
  setOscillation(on: boolean): void {
    this.oscillating = on;
  }

  get state(): PlayerState {
    return { currentFrame: this.frame, totalFrames: this.total, playing: this.playingNow };
  }

  get fps(): number {
    return this.fpsValue;
  }

  reset(totalFrames: number): void {
    this.stopTimer();
    this.phase = 0;
    this.total = totalFrames;
    this.frame = 0;
    this.playingNow = false;
    this.sync(this.state);
  }

  play(): void {
    if (this.oscillating && this.total > 0 && !this.playingNow) {
      this.playingNow = true;
      this.sync(this.state);
      this.schedule();
      return;
    }
    if (this.total < 2 || this.playingNow) {
      this.sync(this.state);
      return;
    }
    this.playingNow = true;
    this.sync(this.state);
    this.schedule();
  }

  pause(): void {
    this.playingNow = false;
    this.stopTimer();
    if (this.oscillating) {
      this.phase = 0;
      this.showPhase(0);
    }
    this.sync(this.state);
  }

  next(): void {
    this.setFrame(this.total > 0 ? (this.frame + 1) % this.total : 0);
  }

  previous(): void {
    this.setFrame(this.total > 0 ? (this.frame - 1 + this.total) % this.total : 0);
  }

  setFrame(index: number): void {
    if (this.total === 0) return;
    this.frame = Math.min(this.total - 1, Math.max(0, Math.round(index)));
    this.showFrame(this.frame);
    this.sync(this.state);
  }

  setSpeed(fps: number): void {
    this.fpsValue = Math.min(MAX_FPS, Math.max(MIN_FPS, fps));
    if (this.playingNow) {
      this.stopTimer();
      this.schedule();
    }
  }

  private schedule(): void {
    if (this.oscillating) {
      // 30 updates a second; the speed setting is the swing rate (fps / 3 cycles per second, 1 Hz at 3).
      this.timer = setTimeout(() => {
        if (!this.playingNow) return;
        this.phase = (this.phase + (2 * Math.PI * this.fpsValue) / 3 / 30) % (2 * Math.PI);
        this.showPhase(this.phase);
        this.schedule();
      }, 1000 / 30);
      return;
    }
    this.timer = setTimeout(() => {
      if (!this.playingNow) return;
      this.next();
      this.schedule();
    }, 1000 / this.fpsValue);
  }

  private stopTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
