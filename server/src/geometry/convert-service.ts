import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type ConvertResponse,
  LENGTH_UNITS,
  UPLOAD_EXTENSIONS,
  unsupportedFileTypeMessage,
} from '@fieldline/contracts';
import type { AppConfig } from '../config.ts';
import { type EngineLocation, type EngineOutcome, runEngine } from '../engine/engine-runner.ts';
import { HttpError } from '../http/errors.ts';
import type { JobOwner } from '../jobs/job-owner.ts';
import { refuseMalformedContent } from './content-check.ts';
import type { ReceivedUpload } from './multipart-upload.ts';
import { MB } from './upload-limits.ts';
import type { UploadFormat, UploadService } from './upload-service.ts';

const FORMAT_OF_EXTENSION: Record<string, UploadFormat> = {
  step: 'step',
  stp: 'step',
  stl: 'stl',
  obj: 'obj',
  zip: 'zip',
};
/** A ZIP member may expand at most this many times (decompression bombs). */
export const ZIP_MAX_RATIO = 200;

export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot >= 0 ? filename.slice(dot + 1).toLowerCase() : '';
}

/**
 * Spec 001 §5: anything but json/step/stp/stl/obj/zip gets the exact unsupported-type message.
 * JSON is a valid upload for the environment but is opened in the browser, not converted.
 */
export function checkUploadName(filename: string): UploadFormat {
  const ext = extensionOf(filename);
  if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(ext)) {
    throw new HttpError(400, 'unsupported_file_type', unsupportedFileTypeMessage(ext || filename));
  }
  const format = FORMAT_OF_EXTENSION[ext];
  if (!format) {
    throw new HttpError(
      400,
      'not_convertible',
      'JSON mesh and results files are opened directly in the environment; convert-step takes STEP, STP, STL, OBJ or ZIP files.',
    );
  }
  return format;
}

function unitsField(fields: Record<string, string>): string {
  const raw = (fields.units ?? 'mm').trim().toLowerCase() || 'mm';
  if (!(LENGTH_UNITS as readonly string[]).includes(raw)) {
    throw new HttpError(
      400,
      'invalid_request',
      `units must be one of ${LENGTH_UNITS.join(', ')}; got "${fields.units}".`,
    );
  }
  return raw;
}

/** The engine's wall-time and memory limits for a conversion, and the ZIP expansion limit. */
export type ConvertLimits = Pick<
  AppConfig,
  'convertTimeoutSeconds' | 'convertMemoryLimitMb' | 'zipMaxExpandedMb'
>;

/**
 * POST /api/convert-step: the uploaded file is parsed by the engine in a separate process (wall-time
 * and memory limits, no network), its surface is returned for display, and the file is kept as an
 * upload of the caller so a meshing job can mesh the original. A file that cannot be read changes
 * nothing: no upload row, no stored bytes.
 */
export class ConvertService {
  constructor(
    private readonly engine: EngineLocation,
    private readonly uploads: UploadService,
    private readonly limits: ConvertLimits,
  ) {}

  async convert(owner: JobOwner, upload: ReceivedUpload, scratch: string): Promise<ConvertResponse> {
    const format = checkUploadName(upload.filename);
    const units = unitsField(upload.fields);
    await refuseMalformedContent(upload.path, upload.bytes, format, upload.filename);
    const file = `upload.${format}`;
    const cfg = this.limits;
    const job = {
      inputs: [{ file, format, name: upload.filename }],
      units,
      limits: { zip: { max_total_bytes: cfg.zipMaxExpandedMb * MB, max_ratio: ZIP_MAX_RATIO } },
    };
    const jobDir = join(scratch, 'convert');
    await rm(jobDir, { recursive: true, force: true });
    await mkdir(jobDir, { mode: 0o700 });
    await rename(upload.path, join(jobDir, file));
    await writeFile(join(jobDir, 'job.json'), JSON.stringify(job), { mode: 0o600 });

    const outcome = await runEngine(this.engine, {
      command: 'convert',
      jobDir,
      timeoutSeconds: cfg.convertTimeoutSeconds,
      memoryLimitMb: cfg.convertMemoryLimitMb,
    });
    if (!outcome.ok)
      throw conversionError(outcome, upload.filename, cfg.convertTimeoutSeconds, cfg.convertMemoryLimitMb);

    // The engine wrote everything but the upload id, which exists once the upload is stored below.
    const surface = JSON.parse(await readFile(join(jobDir, 'results.json'), 'utf8')) as ConvertResponse;
    const bodies = surface.meshes ?? [{ faces: surface.faces ?? [] }];
    const row = await this.uploads.create(
      {
        owner,
        originalName: upload.filename,
        format,
        sizeBytes: upload.bytes,
        sha256: upload.sha256,
        units: surface.units,
        bodyCount: bodies.length,
        triangleCount: bodies.reduce((n, b) => n + b.faces.length, 0),
      },
      join(jobDir, file),
    );
    return { ...surface, upload_id: row.id };
  }
}

function conversionError(
  outcome: Extract<EngineOutcome, { ok: false }>,
  name: string,
  seconds: number,
  mb: number,
): HttpError {
  switch (outcome.code) {
    case 'engine_unavailable':
      return new HttpError(
        503,
        'engine_unavailable',
        'The geometry engine is not available. Please try again later.',
      );
    case 'time_limit':
      return new HttpError(
        422,
        'conversion_timeout',
        `Reading ${name} took longer than ${seconds} s and was stopped. The file may be very large or malformed; try exporting it again or simplifying the model.`,
      );
    case 'memory_limit':
      return new HttpError(
        422,
        'conversion_memory',
        `Reading ${name} needed more than ${mb} MB of memory and was stopped. The file may be very large or malformed.`,
      );
    case 'engine_crashed':
    case 'cad_parser_crashed':
      return new HttpError(
        422,
        'parser_crashed',
        `The CAD parser crashed while reading ${name}; the file is probably corrupt. Export it again from your CAD tool. (${outcome.message})`,
      );
    default:
      return new HttpError(422, outcome.code || 'invalid_geometry', outcome.message);
  }
}
