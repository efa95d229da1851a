import { UPLOAD_EXTENSIONS, unsupportedFileTypeMessage } from '@fieldline/contracts';
import type { SourceFormat } from '../state/environment-state.ts';

export { unsupportedFileTypeMessage };

export const ACCEPT_ATTRIBUTE = UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(',');

export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The upload's format, or null for anything spec 001 §5 does not allow. */
export function sourceFormatOf(name: string): SourceFormat | null {
  const ext = fileExtension(name);
  return (UPLOAD_EXTENSIONS as readonly string[]).includes(ext) ? (ext as SourceFormat) : null;
}

/** Formats that carry no length unit: the user picks one before meshing. */
export const UNITLESS_FORMATS: readonly SourceFormat[] = ['stl', 'obj'];

export const failedToLoadMessage = (detail: string) => `Failed to load file: ${detail}`;
