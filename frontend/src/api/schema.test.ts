import { describe, expectTypeOf, it } from 'vitest';
import type { RequestBody, ResponseBody, Schema } from './schema';

// Type-level: tsc fails when a helper stops finding the body it names (it would be never).
describe('schema helpers', () => {
  it('find a body described inline by its route', () => {
    expectTypeOf<RequestBody<'/auth/password', 'put'>>().toEqualTypeOf<{ current_password: string; password: string; password_confirmation: string }>();
    expectTypeOf<ResponseBody<'/school/public', 'get'>>().toEqualTypeOf<{ logo_url: string | null; name: string }>();
    expectTypeOf<ResponseBody<'/users/{id}', 'delete'>>().toHaveProperty('deactivated').toEqualTypeOf<boolean>();
  });

  it('reads a response schema without a required list as every field sent', () => {
    expectTypeOf<Schema<'Department'>['student_count']>().toEqualTypeOf<number>();
  });
});
