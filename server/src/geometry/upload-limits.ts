import type { CurrentUser } from '../accounts/user-store.ts';
import type { UserPlans } from '../billing/user-plans.ts';

export const MB = 1024 * 1024;

export interface UploadLimit {
  bytes: number;
  /** The 413 message when an upload is larger. */
  message: string;
}

/**
 * The largest upload a caller may send: their plan's `max_file_size_mb` when signed in, the guest
 * model limit (GUEST_MAX_MODEL_MB) otherwise — the same limits a meshing job of that model meets —
 * and never more than MAX_UPLOAD_MB, the server's own cap.
 */
export async function uploadLimitFor(
  user: CurrentUser | null,
  plans: Pick<UserPlans, 'planOf'>,
  caps: { maxUploadMb: number; guestMaxModelMb: number },
): Promise<UploadLimit> {
  const cap = caps.maxUploadMb;
  if (!user) {
    const mb = Math.min(caps.guestMaxModelMb, cap);
    return {
      bytes: Math.floor(mb * MB),
      message: `The file is larger than the ${mb} MB upload limit for guests. Sign in to upload larger files.`,
    };
  }
  const { plan } = await plans.planOf(user.id);
  const planMb = plan.features.max_file_size_mb;
  if (planMb <= cap) {
    return {
      bytes: Math.floor(planMb * MB),
      message: `The file is larger than the ${planMb} MB upload limit of the ${plan.name} plan. Choose a plan with a larger limit on the Billing page.`,
    };
  }
  return { bytes: cap * MB, message: `The file is larger than the ${cap} MB upload limit of this server.` };
}
