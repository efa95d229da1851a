// zod (the analysis schemas) is used from here on only: its browser settings come with this page.
import '../zod-config.ts';

// The simulator lives in web/src/environment/; the route table imports it from here.
export { EnvironmentPage } from '../environment/EnvironmentPage.tsx';
