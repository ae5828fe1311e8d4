CREATE TABLE "activity_delays" (
	"id" serial PRIMARY KEY NOT NULL,
	"activity_id" integer NOT NULL,
	"delay_code_id" integer NOT NULL,
	"hours_lost" numeric(8, 2) NOT NULL,
	"notes" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "activity_delays_hours_check" CHECK ("activity_delays"."hours_lost" > 0)
);
--> statement-breakpoint
CREATE TABLE "activity_status_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"activity_id" integer NOT NULL,
	"from_status" text NOT NULL,
	"to_status" text NOT NULL,
	"reason" text,
	"changed_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "delay_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "power_bi_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"embed_url" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "installed_quantity" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "booked_hours" numeric(8, 2);--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "actual_hours" numeric(8, 2);--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "rejection_reason" text;--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_delays" ADD CONSTRAINT "activity_delays_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_delays" ADD CONSTRAINT "activity_delays_delay_code_id_delay_codes_id_fk" FOREIGN KEY ("delay_code_id") REFERENCES "public"."delay_codes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_delays" ADD CONSTRAINT "activity_delays_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_status_changes" ADD CONSTRAINT "activity_status_changes_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_status_changes" ADD CONSTRAINT "activity_status_changes_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delay_codes" ADD CONSTRAINT "delay_codes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "power_bi_reports" ADD CONSTRAINT "power_bi_reports_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "power_bi_reports" ADD CONSTRAINT "power_bi_reports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_delays_activity_idx" ON "activity_delays" USING btree ("activity_id");--> statement-breakpoint
CREATE INDEX "activity_status_changes_activity_idx" ON "activity_status_changes" USING btree ("activity_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "delay_codes_site_code_unique" ON "delay_codes" USING btree ("site_id",lower(trim("code")));--> statement-breakpoint
CREATE UNIQUE INDEX "power_bi_reports_site_name_unique" ON "power_bi_reports" USING btree ("site_id",lower(trim("name")));