/**
 * Texts of spec §5 and §8 that both the console and the server show, in English word for word.
 * Each has an i18n key in messageCatalog.ts, which the server sends beside the text.
 */
export const messages = {
  required: (label: string) => `${label} is required`,
  minChars: (label: string, limit: number) => `${label} accepts a minimum of ${limit} characters`,
  maxChars: (label: string, limit: number) => `${label} accepts a maximum of ${limit} characters`,
  minDigits: (label: string, limit: number) => `${label} accepts a minimum of ${limit} digits`,
  maxDigits: (label: string, limit: number) => `${label} accepts a maximum of ${limit} digits`,
  onlyDigits: (label: string) => `${label} accepts only digits`,
  duplicateName: (label: string) => `${label} name already exists!`,
  created: (label: string) => `${label} is created successfully`,
  deleted: (label: string) => `${label} is deleted successfully`,
  confirmDelete: (label: string) =>
    `Are you sure to delete ${label} information, this action can't be undone?`,
  noneAvailable: (label: string) => `No ${label} available`,
  somethingWentWrongContactSupport: 'Something went wrong, please contact support!',
  somethingWentWrong: 'Something went wrong please try again',
  pleaseTryAgain: 'Please try again',
  badCredentials: 'Bad Credentials',
  notAuthorized: 'Not Authorized',
  offline: 'No internet connection, please check your connection and try again',
  backOnline: 'Internet is back!',
  invalid: (label: string) => `${label} is invalid`,
  notAllowed: (label: string) => `${label} is not allowed`,
  notFound: (label: string) => `${label} not found`,
  routeNotFound: (method: string, path: string) => `Route ${method} ${path} not found`,
  malformedRequest: 'Malformed request',
  unauthenticated: 'Unauthenticated',
  invalidInput: 'Invalid input',
  tooManyAttempts: 'Too many attempts, please try again later',
  requestTooLarge: 'Request is too large',
} as const;

/** How long the login/forbidden redirect toasts and the back-online notice stay (spec §9). */
export const SHORT_TOAST_MS = 1000;
