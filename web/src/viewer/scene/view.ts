import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

/**
 * Renderer, camera, orbit/pan/zoom controls and an axis triad. Renders on demand (after a change),
 * never in a loop: software rendering shares the CPU with everything else.
 */
export class View {
  readonly renderer: THREE.WebGLRenderer;
  readonly scene = new THREE.Scene();
  readonly camera: THREE.PerspectiveCamera;
  readonly controls: OrbitControls;
  private readonly triadScene = new THREE.Scene();
  private readonly triadCamera = new THREE.OrthographicCamera(-1.4, 1.4, 1.4, -1.4, 0.1, 10);
  private pending = false;
  private afterRender: (() => void)[] = [];
  /** JS time spent in the last render call (ms), for the benchmark */
  lastRenderMs = 0;
  /** from the request of the last render to the browser's animation frame (waits on the rasteriser) */
  lastFrameWaitMs = 0;
  renders = 0;
  private requestedAt = 0;
  private bounds = new THREE.Box3(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));

  constructor(readonly container: HTMLElement) {
    // Multisampling costs a software rasteriser (SwiftShader, llvmpipe) several times the frame time.
    this.renderer = new THREE.WebGLRenderer({
      antialias: !softwareRenderer(),
      alpha: true,
      preserveDrawingBuffer: false,
    });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    this.renderer.setClearColor(0x000000, 0);
    this.renderer.localClippingEnabled = true;
    this.renderer.autoClear = false;
    container.appendChild(this.renderer.domElement);
    this.camera = new THREE.PerspectiveCamera(35, 1, 0.01, 1000);
    this.camera.up.set(0, 0, 1); // engineering models are z-up
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.enableDamping = false;
    this.controls.zoomToCursor = true;
    this.controls.screenSpacePanning = true;
    this.controls.addEventListener('change', () => this.requestRender());
    this.buildTriad();
    new ResizeObserver(() => this.resize()).observe(container);
    this.resize();
  }

  private buildTriad(): void {
    const axes: [THREE.Vector3, number, string][] = [
      [new THREE.Vector3(1, 0, 0), 0xe5484d, 'x'],
      [new THREE.Vector3(0, 1, 0), 0x46a758, 'y'],
      [new THREE.Vector3(0, 0, 1), 0x3e8ed0, 'z'],
    ];
    for (const [dir, color, label] of axes) {
      this.triadScene.add(new THREE.ArrowHelper(dir, new THREE.Vector3(), 0.9, color, 0.25, 0.14));
      const canvas = document.createElement('canvas');
      canvas.width = 64;
      canvas.height = 64;
      const ctx = canvas.getContext('2d');
      if (ctx) {
        ctx.font = 'bold 44px system-ui, sans-serif';
        ctx.fillStyle = `#${color.toString(16).padStart(6, '0')}`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(label, 32, 34);
      }
      const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: new THREE.CanvasTexture(canvas) }));
      sprite.position.copy(dir.clone().multiplyScalar(1.2));
      sprite.scale.setScalar(0.4);
      this.triadScene.add(sprite);
    }
  }

  resize(): void {
    const w = Math.max(1, this.container.clientWidth);
    const h = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(w, h, false);
    this.renderer.domElement.style.width = '100%';
    this.renderer.domElement.style.height = '100%';
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.requestRender();
  }

  requestRender(after?: () => void): void {
    if (after) this.afterRender.push(after);
    if (this.pending) return;
    this.pending = true;
    this.requestedAt = performance.now();
    requestAnimationFrame(() => {
      this.lastFrameWaitMs = performance.now() - this.requestedAt;
      this.renderNow();
    });
  }

  /** Renders at once (PNG export needs the drawing buffer in the same task). */
  renderNow(): void {
    this.pending = false;
    const t0 = performance.now();
    const r = this.renderer;
    const size = r.getSize(new THREE.Vector2());
    r.setScissorTest(false);
    r.setViewport(0, 0, size.x, size.y);
    r.clear();
    r.render(this.scene, this.camera);
    // Axis triad in the lower-left corner, turned with the camera.
    const s = Math.min(96, Math.floor(Math.min(size.x, size.y) / 4));
    this.triadCamera.position.copy(this.camera.position).sub(this.controls.target).setLength(4);
    this.triadCamera.up.copy(this.camera.up);
    this.triadCamera.lookAt(0, 0, 0);
    r.setScissorTest(true);
    r.setScissor(6, 6, s, s);
    r.setViewport(6, 6, s, s);
    r.clearDepth();
    r.render(this.triadScene, this.triadCamera);
    r.setScissorTest(false);
    r.setViewport(0, 0, size.x, size.y);
    this.lastRenderMs = performance.now() - t0;
    this.renders++;
    const callbacks = this.afterRender;
    this.afterRender = [];
    for (const cb of callbacks) cb();
  }

  setBounds(box: THREE.Box3): void {
    if (!box.isEmpty()) this.bounds = box.clone();
  }

  /** Points that must fit in the view (the model's vertices); the bounds' corners when absent. */
  fitPoints: Float32Array | null = null;

  /** Frames the model from the current direction: every vertex (or box corner) in view, with a margin. */
  zoomToFit(box: THREE.Box3 = this.bounds): void {
    const center = box.getCenter(new THREE.Vector3());
    const radius = Math.max(box.getBoundingSphere(new THREE.Sphere()).radius, 1e-9);
    const dir = this.camera.position.clone().sub(this.controls.target);
    if (dir.lengthSq() === 0) dir.set(1, -1.4, 0.9);
    dir.normalize();
    const tanV = Math.tan(THREE.MathUtils.degToRad(this.camera.fov) / 2) * 0.86;
    const tanH = tanV * this.camera.aspect;
    // Camera axes for this direction.
    const right = new THREE.Vector3().crossVectors(this.camera.up, dir).normalize();
    if (right.lengthSq() === 0) right.set(1, 0, 0);
    const up = new THREE.Vector3().crossVectors(dir, right).normalize();
    let distance = 0;
    const fitOne = (x: number, y: number, z: number) => {
      const px = x - center.x;
      const py = y - center.y;
      const pz = z - center.z;
      const depth = px * dir.x + py * dir.y + pz * dir.z; // towards the camera
      const lateral = Math.abs(px * right.x + py * right.y + pz * right.z) / tanH;
      const vertical = Math.abs(px * up.x + py * up.y + pz * up.z) / tanV;
      distance = Math.max(distance, depth + lateral, depth + vertical);
    };
    const pts = this.fitPoints;
    if (pts && pts.length > 0 && box === this.bounds) {
      for (let i = 0; i < pts.length; i += 3) fitOne(pts[i]!, pts[i + 1]!, pts[i + 2]!);
    } else {
      for (let i = 0; i < 8; i++) {
        fitOne(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z);
      }
    }
    distance = Math.max(distance, radius * 0.5);
    this.controls.target.copy(center);
    this.camera.position.copy(center).add(dir.multiplyScalar(distance));
    this.camera.near = Math.max(distance - radius, distance / 100) / 4;
    this.camera.far = (distance + radius) * 4;
    this.camera.updateProjectionMatrix();
    this.controls.update();
    this.requestRender();
  }

  /** The default isometric-style view of the whole model. */
  resetView(): void {
    this.camera.up.set(0, 0, 1);
    this.camera.position.copy(this.controls.target).add(new THREE.Vector3(1.1, -1.6, 0.95));
    this.zoomToFit(this.bounds);
  }

  /** The rendered image as a canvas, with `decorate` drawing overlays (legend) on top. */
  capture(decorate: (ctx: CanvasRenderingContext2D, scale: number) => void): HTMLCanvasElement {
    this.renderNow();
    const src = this.renderer.domElement;
    const out = document.createElement('canvas');
    out.width = src.width;
    out.height = src.height;
    const ctx = out.getContext('2d');
    if (!ctx) return out;
    const bg = ctx.createLinearGradient(0, 0, 0, out.height);
    bg.addColorStop(0, '#3a4452');
    bg.addColorStop(1, '#161b22');
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, out.width, out.height);
    ctx.drawImage(src, 0, 0);
    decorate(ctx, src.width / Math.max(1, src.clientWidth));
    return out;
  }
}

/** True when WebGL runs on a CPU rasteriser (headless browsers, machines without a GPU). */
function softwareRenderer(): boolean {
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return false;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return /swiftshader|llvmpipe|software/i.test(name);
  } catch {
    return false;
  }
}
