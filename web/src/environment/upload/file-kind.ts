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

/** The file's text (FileReader where Blob.text is missing, as in older engines and jsdom). */
export function readFileText(file: Blob): Promise<string> {
  if (typeof file.text === 'function') return file.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('could not read the file'));
    reader.readAsText(file);
  });
}
