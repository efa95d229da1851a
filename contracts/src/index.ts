export * from './analysis-config.ts';
export * from './errors.ts';
export * from './fea.ts';
export * from './mesh.ts';
