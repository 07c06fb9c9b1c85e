/** The one error type of the server: an HTTP status, a French message for the user, a stable code. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const unauthorized = (message = 'Vous devez être connecté pour accéder à cette ressource.') =>
  new AppError(401, message, 'UNAUTHORIZED');
