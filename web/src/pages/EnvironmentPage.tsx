// The simulator lives in web/src/environment/; the route table imports it from here.
export { EnvironmentPage } from '../environment/EnvironmentPage.tsx';
