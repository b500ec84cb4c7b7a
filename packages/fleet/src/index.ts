/** The registry of areas, read by the scripts that generate the deployment files. */
export { SERVICES } from './services.js';
