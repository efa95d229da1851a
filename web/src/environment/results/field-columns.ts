import { FIELD_COMPONENTS, type ViewerField } from '@fieldline/contracts';

/** Component suffixes per kind (tensors: symmetric, Voigt order). */
const SUFFIXES: Record<ViewerField['kind'], string[]> = {
  scalar: [''],
  vector: ['_x', '_y', '_z'],
  tensor: ['_xx', '_yy', '_zz', '_xy', '_yz', '_xz'],
};

/** One export column: its name and the value of entry i. */
export interface FieldColumn {
  name: string;
  value: (i: number) => number;
}

/**
 * The columns of a named field for the exports (CSV, VTU): each component of the real part, the
 * imaginary part of a phasor beside it, the magnitude of a vector. Names carry the field name and unit,
 * e.g. `electric_field_x [V/m]`.
 */
export function fieldColumns(name: string, field: ViewerField): FieldColumn[] {
  const width = FIELD_COMPONENTS[field.kind];
  const unit = field.unit ? ` [${field.unit}]` : '';
  const columns: FieldColumn[] = [];
  const parts: [string, Float32Array][] = [['', field.values]];
  if (field.imag) parts.push(['_imag', field.imag]);
  for (const [part, values] of parts) {
    SUFFIXES[field.kind].forEach((suffix, c) => {
      columns.push({ name: `${name}${suffix}${part}${unit}`, value: (i) => values[i * width + c] ?? 0 });
    });
  }
  if (field.kind === 'vector') {
    columns.push({
      name: `${name}_magnitude${unit}`,
      value: (i) => {
        let sum = 0;
        for (const [, values] of parts) for (let c = 0; c < 3; c++) sum += (values[i * 3 + c] ?? 0) ** 2;
        return Math.sqrt(sum);
      },
    });
  }
  return columns;
}
