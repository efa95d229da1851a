import type { ComponentType } from 'react';
import { AdaptiveRefinementGroup } from './AdaptiveRefinementGroup.tsx';

/**
 * Groups the form shows under every family's own, in this order (docs/multiphysics.md §5): a setting that
 * applies to every analysis the same way (its state a common field, its keys mapped by common-config.ts)
 * is added here once instead of to each family's groups. The solver group stays in each family's list
 * because each offers its own solvers.
 */
export const COMMON_GROUPS: readonly ComponentType[] = [AdaptiveRefinementGroup];
