/** JSON schemas shared by the route plugins (Fastify validates params and query strings against them). */

/** `/:id` of a row: a uuid or a built-in id. */
export const idParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

/** `/:id` that also takes an exact name or a slug (workflows), so longer. */
export const idOrNameParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 300 } },
} as const;

/** A route that takes no query string: anything sent is refused (400), never silently ignored. */
export const noQuery = { type: 'object', additionalProperties: false, properties: {} } as const;
