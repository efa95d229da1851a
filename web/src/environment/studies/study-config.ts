import { MESH_PARAMETERS } from '@fieldline/contracts';
import { meshingKeys, toBackendConfig } from '../config/to-backend-config.ts';
import { type EnvironmentState, hasVolumeMesh } from '../state/environment-state.ts';

/**
 * The configuration a design study starts from (docs/studies.md): the analysis form's backend config plus
 * the meshing options Generate Volume Mesh sends (sizes, elements per circle, grading, curvature, mesher,
 * repair), so the mesh settings can be swept (`meshMaxSize`) and every point that meshes anew meshes as the
 * user chose. The Sweep action and the Design study card both read it.
 */
export function studyConfigOf(state: Pick<EnvironmentState, 'form' | 'bodies' | 'meshing'>) {
  return {
    ...toBackendConfig(state.form, { bodies: state.bodies }),
    ...meshingKeys(state.meshing.options),
  } as Record<string, unknown>;
}

const isMeshParameter = (path: string) => (MESH_PARAMETERS as readonly string[]).includes(path);

/** True when the study's points mesh the upload first: a mesh setting is swept, or there is no volume mesh. */
export function studyRemeshes(paths: readonly string[], hasVolume: boolean): boolean {
  return !hasVolume || paths.some(isMeshParameter);
}

/**
 * The config sent with a sweep over `paths`: with the meshing options when its points mesh anew (each
 * point's meshing job then uses the same element sizes, curvature, grading, mesher and repair as Generate
 * Volume Mesh), else the analysis config alone, exactly as Run Analysis sends it (no meshing keys the
 * engine would list as unused).
 */
export function sweepConfigOf(
  state: Pick<EnvironmentState, 'form' | 'bodies' | 'meshing' | 'model'>,
  paths: readonly string[],
): Record<string, unknown> {
  return studyRemeshes(paths, hasVolumeMesh(state.model))
    ? studyConfigOf(state)
    : (toBackendConfig(state.form, { bodies: state.bodies }) as Record<string, unknown>);
}
