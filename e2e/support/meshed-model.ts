import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The steps the environment e2e tests share before their physics: a model uploaded and meshed through the
 * real UI, the volume mesh read back from the status route, and its surface faces picked by where they lie.
 */

/** A volume mesh's surface as the status route returns it (model units); face ids are 1-based positions. */
export type SurfaceMesh = { vertices: number[][]; faces: number[][] };

/** 1-based ids of the surface faces whose every vertex passes `test`. */
export function facesWhere(mesh: SurfaceMesh, test: (v: number[]) => boolean): number[] {
  const ids: number[] = [];
  mesh.faces.forEach((f, i) => {
    if (f.every((k) => test(mesh.vertices[k] ?? []))) ids.push(i + 1);
  });
  return ids;
}

/**
 * Keeps the first completed volume mesh the page receives: the status response of a finished job whose
 * results carry tetrahedra (the meshing job's). Register it before the upload.
 */
export function captureVolumeMesh<M extends SurfaceMesh = SurfaceMesh>(page: Page): () => M | null {
  let volume: M | null = null;
  page.on('response', async (res) => {
    if (!res.url().includes('/api/fea/status/')) return;
    const body = (await res.json().catch(() => null)) as {
      status?: string;
      results?: M & { tetrahedra?: unknown };
    } | null;
    if (body?.status === 'completed' && body.results?.tetrahedra && !volume) volume = body.results;
  });
  return () => volume;
}

/** Uploads a model file and waits for its surface-mesh card (the CAD conversion and surface mesh done). */
export async function uploadModel(page: Page, file: string): Promise<void> {
  await page.setInputFiles('[data-testid=file-input]', file);
  await page.waitForSelector('[data-testid=surface-mesh-card]', { timeout: 60_000 });
}

export interface MeshingOptions {
  /** Runs once the surface-mesh card shows, before any mesh option is set (e.g. a check on the model size). */
  onSurfaceMesh?: () => Promise<void>;
  /** The largest element size (model units), set in the mesh options. */
  maxSize?: number | string;
  /** false: turn off refinement on curvature (nominal sizes everywhere). */
  refineOnCurvature?: false;
  /** How long the volume mesh may take to bring up the configuration form (ms). */
  timeout?: number;
}

/**
 * Uploads `file`, sets the mesh options asked for, generates the volume mesh, waits for the configuration
 * form and returns the volume mesh the status route delivered.
 */
export async function uploadAndMesh<M extends SurfaceMesh = SurfaceMesh>(
  page: Page,
  file: string,
  options: MeshingOptions = {},
): Promise<M> {
  const volume = captureVolumeMesh<M>(page);
  await uploadModel(page, file);
  await options.onSurfaceMesh?.();
  if (options.maxSize !== undefined || options.refineOnCurvature === false) {
    await page.click('.mesh-options summary');
    if (options.refineOnCurvature === false) await page.getByLabel('Refine on curvature').uncheck();
    if (options.maxSize !== undefined)
      await page.fill('[data-testid=mesh-max-size]', String(options.maxSize));
  }
  await page.click('[data-testid=generate-volume-mesh]');
  await page.waitForSelector('[data-testid=config-form]', { timeout: options.timeout ?? 180_000 });
  await expect.poll(() => volume() !== null).toBe(true);
  return volume() as M;
}
