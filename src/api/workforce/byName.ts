/** Case-insensitive name order, as the server sorts name,asc. */
export const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || 0;
