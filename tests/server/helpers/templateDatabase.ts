declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

export function databaseUrlFor(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
