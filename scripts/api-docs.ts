// Writes docs/api.md from the OpenAPI document both listeners serve (GET /api/openapi.json).
import { writeFileSync } from 'node:fs';
import { apiReference } from '../server/docs/apiReference';

writeFileSync('docs/api.md', await apiReference());
console.log('docs/api.md written');
