/**
 * Structural keys (docs/multiphysics.md §5; its issue names them). Added with the structural family's solver;
 * until then the family's analysis types are refused (common.ts AVAILABLE_ANALYSIS_TYPES).
 */
export const structuralKeys = {};
