// Imported first by the entry (main.tsx) for this side effect: see startup-check.ts.
import { startAuthCheck } from './startup-check.ts';

startAuthCheck();
