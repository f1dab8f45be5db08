import type { ExpressionBuilder } from "kysely";
import type { Database } from "../../db/schema";

/**
 * Whether the `users` row in scope holds the admin role: the one way every query tells admins
 * from customers (a customer is a user without it).
 */
export const hasAdminRole = (eb: ExpressionBuilder<Database, "users">) =>
  eb.exists(
    eb
      .selectFrom("user_roles")
      .select("user_roles.role")
      .whereRef("user_roles.user_id", "=", "users.id")
      .where("user_roles.role", "=", "admin"),
  );

/** A customer: a user without the admin role. */
export const isNotAdmin = (eb: ExpressionBuilder<Database, "users">) => eb.not(hasAdminRole(eb));
