export * from './analysis/index.ts';
export * from './auth.ts';
export * from './billing.ts';
export * from './errors.ts';
export * from './fea.ts';
export * from './geometry.ts';
export * from './mesh.ts';
export * from './viewer-protocol.ts';
