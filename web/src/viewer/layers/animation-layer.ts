import { AnimationPlayer } from '../animation-player.ts';
import { formatTick, siPrefix } from '../color/color-scale.ts';
import type { ViewerContext } from './context.ts';

/**
 * Animation frames on their axis (time, phase, mode, frequency): the current frame, playback, and the
 * badge line naming the frame. A mode axis plays as a swinging mode shape (the deformation layer swings).
 */
export class AnimationLayer {
  /** the frame every layer shows */
  frame = 0;
  private readonly player: AnimationPlayer;

  constructor(private readonly ctx: ViewerContext) {
    this.player = new AnimationPlayer(
      (frame) => this.showFrame(frame),
      (state) => ctx.emit.sync(state),
      (phase) => ctx.layers.deformation.swingTo(phase),
    );
  }

  play(): void {
    this.player.play();
  }

  pause(): void {
    this.player.pause();
  }

  next(): void {
    this.player.next();
  }

  previous(): void {
    this.player.previous();
  }

  setFrame(index: number): void {
    this.player.setFrame(index);
  }

  setSpeed(fps: number): void {
    this.player.setSpeed(fps);
  }

  /** A new model: back to its first frame (before anything is coloured). */
  rewind(): void {
    this.frame = 0;
  }

  /** A new result: its frames, and whether they are mode shapes that swing when played. */
  loaded(frameCount: number, modeShapes: boolean): void {
    this.player.reset(frameCount);
    this.player.setOscillation(modeShapes);
  }

  reset(): void {
    this.player.reset(0);
  }

  private showFrame(frame: number): void {
    const { ctx } = this;
    const L = ctx.layers;
    const t0 = performance.now();
    this.frame = frame;
    ctx.stats.frame = frame;
    L.surface.apply();
    L.deformation.frameChanged();
    L.streamlines.frameChanged(frame);
    ctx.timeUntilRendered(t0, (ms) => {
      ctx.stats.frameChangeMs = ms;
    });
  }

  badgeLines(): string[] {
    const anim = this.ctx.layers.model.fields.animation;
    if (!anim || anim.frames.length === 0) return [];
    const value = anim.frameValues?.[this.frame];
    const named = anim.frameLabels?.[this.frame];
    const label = named
      ? `  ${named}`
      : value === undefined
        ? ''
        : anim.axis === 'phase'
          ? `  φ = ${value.toFixed(0)}°`
          : anim.axis === 'time'
            ? `  t = ${formatSeconds(value)}`
            : `  f = ${formatHertz(value)}`;
    return [`Frame ${this.frame + 1} / ${anim.frames.length}${label}`];
  }
}

function formatHertz(hz: number): string {
  const { factor, prefix } = siPrefix(Math.abs(hz));
  return `${formatTick(hz, factor)} ${prefix}Hz`;
}

function formatSeconds(s: number): string {
  const { factor, prefix } = siPrefix(Math.abs(s));
  return `${formatTick(s, factor)} ${prefix}s`;
}
