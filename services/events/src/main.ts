import { serveDistributed } from '@fieldcast/kit';
import { eventsService } from './definition.js';

await serveDistributed(eventsService);
