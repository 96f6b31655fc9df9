/** The bearer token of an Authorization header (RFC 6750 §2.1), or undefined when it carries none. */
export const bearerToken = (authorization: string | undefined): string | undefined =>
  /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
