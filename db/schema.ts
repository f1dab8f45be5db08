import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

/** Timestamps are written as Date or ISO strings and always read back as Date. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

// The value lists have one home each, in a client-safe feature module. Only their types come
// here (type imports vanish at build time, so db/ never pulls app/ code into a bundle).
export type { OAuthProvider, Role } from "../app/features/accounts/account-constants";
export type { BookingSource, BookingStatus } from "../app/features/bookings/booking-constants";
export type { ImageType } from "../app/features/media/media-constants";
export type { DogCount, NotificationStatus, QuoteStatus, YardSize } from "../app/features/quotes/quote-constants";
export type { ServiceStatus, ServiceType } from "../app/features/visits/visit-constants";
import type { OAuthProvider, Role } from "../app/features/accounts/account-constants";
import type { BookingSource, BookingStatus } from "../app/features/bookings/booking-constants";
import type { ImageType } from "../app/features/media/media-constants";
import type { DogCount, NotificationStatus, QuoteStatus, YardSize } from "../app/features/quotes/quote-constants";
import type { ServiceStatus, ServiceType } from "../app/features/visits/visit-constants";

export interface UsersTable {
  id: Generated<string>;
  email: string;
  password_hash: string | null;
  created_at: CreatedAt;
}

export interface ProfilesTable {
  user_id: string;
  full_name: string;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface UserRolesTable {
  user_id: string;
  role: Role;
  created_at: CreatedAt;
}

export interface OAuthAccountsTable {
  provider: OAuthProvider;
  provider_user_id: string;
  user_id: string;
  created_at: CreatedAt;
}

export interface SessionsTable {
  id: string;
  /** Null while a visitor is mid-way through an OAuth round trip. */
  user_id: string | null;
  data: ColumnType<Record<string, unknown>, string, string>;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

export interface ServicesTable {
  id: Generated<string>;
  customer_id: string;
  service_type: ServiceType;
  service_date: Timestamp;
  status: ColumnType<ServiceStatus, ServiceStatus | undefined, ServiceStatus>;
  notes: string | null;
  created_by: string | null;
  created_at: CreatedAt;
}

export interface ServiceImagesTable {
  id: Generated<string>;
  service_id: string;
  /** The storage key: {userId}/{serviceId}/{before|after}_{timestamp}.{extension} */
  image_url: string;
  image_type: ImageType;
  content_type: string | null;
  size_bytes: ColumnType<number | null, number | null | undefined, number | null>;
  uploaded_by: string | null;
  created_at: CreatedAt;
}

export interface BookingsTable {
  id: Generated<string>;
  customer_id: string;
  service_type: string;
  booking_date: Timestamp;
  status: ColumnType<BookingStatus, BookingStatus | undefined, BookingStatus>;
  source: ColumnType<BookingSource, BookingSource | undefined, BookingSource>;
  external_id: string | null;
  created_at: CreatedAt;
}

export interface QuoteRequestsTable {
  id: Generated<string>;
  name: string;
  phone: string;
  email: string;
  address: string;
  zip: string;
  dogs: DogCount;
  yard_size: YardSize;
  service: string;
  message: string | null;
  status: ColumnType<QuoteStatus, QuoteStatus | undefined, QuoteStatus>;
  outside_service_area: ColumnType<boolean, boolean | undefined, boolean>;
  /** The instant estimate shown to the visitor, in cents; null when the plan has no monthly price. */
  estimate_cents: number | null;
  estimate_label: string | null;
  /** Same request twice within a short window is stored once: a hash of its fields. */
  dedupe_key: string;
  client_key: string | null;
  notification_status: ColumnType<NotificationStatus, NotificationStatus | undefined, NotificationStatus>;
  notification_attempts: ColumnType<number, number | undefined, number>;
  notification_error: string | null;
  notified_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface RateLimitsTable {
  key: string;
  hits: number;
  window_started_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  profiles: ProfilesTable;
  user_roles: UserRolesTable;
  oauth_accounts: OAuthAccountsTable;
  sessions: SessionsTable;
  services: ServicesTable;
  service_images: ServiceImagesTable;
  bookings: BookingsTable;
  quote_requests: QuoteRequestsTable;
  rate_limits: RateLimitsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type Profile = Selectable<ProfilesTable>;
export type Service = Selectable<ServicesTable>;
export type NewService = Insertable<ServicesTable>;
export type ServiceImage = Selectable<ServiceImagesTable>;
export type NewServiceImage = Insertable<ServiceImagesTable>;
export type Booking = Selectable<BookingsTable>;
export type NewBooking = Insertable<BookingsTable>;
export type QuoteRequest = Selectable<QuoteRequestsTable>;
export type NewQuoteRequest = Insertable<QuoteRequestsTable>;
export type QuoteRequestUpdate = Updateable<QuoteRequestsTable>;
