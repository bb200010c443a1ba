/** The server's rule (server/internal/auth: MinPasswordLength). */
export const MIN_PASSWORD_LENGTH = 6;
