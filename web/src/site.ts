/** Deployment facts the public pages show. Set VITE_SUPPORT_EMAIL at build time for a real deployment. */
export const SUPPORT_EMAIL: string = import.meta.env.VITE_SUPPORT_EMAIL ?? 'support@fieldline.example';
