import { serveDistributed } from '@fieldcast/kit';
import { agricultureService } from './definition.js';

await serveDistributed(agricultureService);
