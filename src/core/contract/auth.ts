import { z } from "zod";

export const TOKEN_PATH = "/api/authorization/exchange";

export const tokenResponse = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().int().positive(),
  scope: z.string().optional(),
});
export type TokenResponse = z.infer<typeof tokenResponse>;
