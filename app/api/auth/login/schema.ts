import { z } from "zod";

/** Body of `POST /api/auth/login`. */
export const loginBodySchema = z.object({
  email: z.string().trim().toLowerCase().email("Enter an e-mail address"),
  password: z.string().min(1, "Enter the password"),
});
