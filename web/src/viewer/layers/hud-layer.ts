import type { ViewerContext } from './context.ts';

/** The badge in the corner: the frame, a missing field, the section's plane — each line from its layer. */
export class HudLayer {
  private readonly badge: HTMLDivElement;

  constructor(private readonly ctx: ViewerContext) {
    this.badge = ctx.element('fl-badge');
  }

  update(): void {
    const L = this.ctx.layers;
    const lines = [...L.animation.badgeLines(), ...L.surface.badgeLines(), ...L.section.badgeLines()];
    this.badge.textContent = lines.join('\n');
  }

  get text(): string {
    return this.badge.textContent ?? '';
  }
}
