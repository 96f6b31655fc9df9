/** The HTTP methods a path item may hold an operation under, in OpenAPI's lowercase spelling. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
