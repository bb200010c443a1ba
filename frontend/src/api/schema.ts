// The wire types, generated from the OpenAPI document the server serves (make gen writes
// schema.gen.ts from openapi.json; both are committed). A feature's types.ts names the
// schemas it uses: `export type Student = Schema<'Student'>`; a body the document describes
// inline, by its route: `RequestBody<'/auth/password', 'put'>`.
import type { components, paths } from './schema.gen';

export type Schemas = components['schemas'];
export type Schema<N extends keyof Schemas> = Schemas[N];

type JSONOf<T> = T extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON body an operation takes. */
export type RequestBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody?: infer R } ? JSONOf<NonNullable<R>> : never;

/** The JSON an operation answers with the status S (200 unless given). */
export type ResponseBody<P extends keyof paths, M extends keyof paths[P], S extends number = 200> = paths[P][M] extends { responses: infer R }
  ? S extends keyof R
    ? JSONOf<R[S]>
    : never
  : never;
