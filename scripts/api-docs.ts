// Writes docs/api.md from the route schemas.
import { writeFileSync } from 'node:fs';
import { apiReference } from '../server/docs/apiReference';

writeFileSync('docs/api.md', await apiReference());
console.log('docs/api.md written');
