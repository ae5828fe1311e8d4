import { type Static, Type } from 'typebox';
import { LIMITS, LOCALES } from '../limits';
import { PERMISSIONS, ROLES } from '../roles';
import { SafeString } from '../text';
import { IdSchema, successOf } from './sites';

/**
 * Request and reply schemas of sign-in, the session and the signed-in user's profile (spec §7
 * "Auth and user": login, logout, register, forgot and reset password, preferences, recently
 * visited), shared by the server's routes and the console's API types.
 */

/** The replies' texts; 401s share one so they never tell which part was wrong. */
export const authMessages = {
  invalidCredentials: 'Invalid email or password',
  tooManyLogins: 'Too many login attempts, please try again later',
  loggedOut: 'Logged out successfully',
  resetLinkSent: 'If the address is registered, a reset link has been sent',
  invalidLink: 'This link is invalid or has expired',
  passwordUpdated: 'Password updated successfully',
  registered: 'Registration complete, please log in',
  siteOutsideClient: 'Site does not belong to the client',
} as const;

const EmailSchema = SafeString({ minLength: 1, maxLength: LIMITS.emailMax });

/**
 * A password as typed at sign-in: any length the policy ever allowed, so no minimum here, and any
 * character: it is only hashed, never stored or queried, and an older password may hold a tab.
 */
const SignInPasswordSchema = Type.String({ minLength: 1, maxLength: LIMITS.passwordMax });

/** A password being chosen: the policy of src/domain/limits.ts. */
export const NewPasswordSchema = SafeString({
  minLength: LIMITS.passwordMin,
  maxLength: LIMITS.passwordMax,
});

const NullableIdSchema = Type.Union([IdSchema, Type.Null()]);

export const LocaleSchema = Type.Union(LOCALES.map((locale) => Type.Literal(locale)));

export const LoginBodySchema = Type.Object({ email: EmailSchema, password: SignInPasswordSchema });

/** Sign-in straight into a site; `group_of_sites_id`, when sent, must be the site's group. */
export const SiteLoginBodySchema = Type.Object({
  email: EmailSchema,
  password: SignInPasswordSchema,
  group_of_sites_id: Type.Optional(NullableIdSchema),
});

export const ForgotPasswordBodySchema = Type.Object({ email: EmailSchema });

export const ResetPasswordBodySchema = Type.Object({ password: NewPasswordSchema });

export const RegisterBodySchema = Type.Object({
  name: SafeString({ minLength: 1, maxLength: LIMITS.nameMax }),
  password: NewPasswordSchema,
});

export const PreferencesBodySchema = Type.Object({ locale: LocaleSchema });

/** Numbers or null, never numeric strings (spec §7). */
export const RecentlyVisitedBodySchema = Type.Object({
  client_id: NullableIdSchema,
  site_id: NullableIdSchema,
});

/** The e-mailed token of /register/{token} and /reset-password/{token}. */
export const TokenParamsSchema = Type.Object({ token: SafeString() });

/** The user as the server replies it (spec §3: the role comes as user_role); see ApiUser. */
export const ApiUserSchema = Type.Object({
  id: IdSchema,
  name: Type.String(),
  email: Type.String(),
  user_role: Type.Enum([...ROLES]),
  permissions: Type.Array(Type.Enum([...PERMISSIONS])),
  locale: Type.Enum([...LOCALES]),
  last_client_id: NullableIdSchema,
  last_site_id: NullableIdSchema,
});

export const LoginReplySchema = Type.Object({ access_token: Type.String(), user: ApiUserSchema });

export const LoginEnvelopeSchema = successOf(LoginReplySchema);
export const ApiUserEnvelopeSchema = successOf(ApiUserSchema);

/** A success that only says something (logout, forgot and reset password). */
export const MessageEnvelopeSchema = Type.Object({
  status: Type.Literal('success'),
  message: Type.Optional(Type.String()),
});

export type LoginBody = Static<typeof LoginBodySchema>;
export type SiteLoginBody = Static<typeof SiteLoginBodySchema>;
export type ForgotPasswordBody = Static<typeof ForgotPasswordBodySchema>;
export type ResetPasswordBody = Static<typeof ResetPasswordBodySchema>;
export type RegisterBody = Static<typeof RegisterBodySchema>;
export type PreferencesBody = Static<typeof PreferencesBodySchema>;
export type RecentlyVisitedBody = Static<typeof RecentlyVisitedBodySchema>;
