CREATE TABLE "evacuation_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"started_by" integer,
	"ended_at" timestamp with time zone,
	"ended_by" integer,
	"floor_ids" jsonb NOT NULL,
	"zone_ids" jsonb NOT NULL,
	"assembly_zone_ids" jsonb NOT NULL,
	"safe_zone_id" integer,
	"gateway_id" integer,
	"evacuation_floor_ids" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evacuation_status_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"worker_id" integer NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"cause" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evacuation_workers" (
	"session_id" text NOT NULL,
	"worker_id" integer NOT NULL,
	"inventory_item_id" integer NOT NULL,
	"status" text NOT NULL,
	"included_at" timestamp with time zone NOT NULL,
	"status_changed_at" timestamp with time zone NOT NULL,
	"safe_at" timestamp with time zone,
	"acknowledged_at" timestamp with time zone,
	"accounted_at" timestamp with time zone,
	CONSTRAINT "evacuation_workers_session_id_worker_id_pk" PRIMARY KEY("session_id","worker_id")
);
--> statement-breakpoint
CREATE TABLE "incidents" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"inventory_item_id" integer NOT NULL,
	"worker_id" integer,
	"floor_id" integer,
	"zone_id" integer,
	"ts" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"escalated_at" timestamp with time zone,
	"escalated_by" integer,
	CONSTRAINT "incidents_type_check" CHECK ("incidents"."type" in ('sos', 'fall', 'noMotion', 'restrictedZone')),
	CONSTRAINT "incidents_status_check" CHECK ("incidents"."status" in ('open', 'escalated'))
);
--> statement-breakpoint
ALTER TABLE "evacuation_sessions" ADD CONSTRAINT "evacuation_sessions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evacuation_sessions" ADD CONSTRAINT "evacuation_sessions_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evacuation_sessions" ADD CONSTRAINT "evacuation_sessions_ended_by_users_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evacuation_status_events" ADD CONSTRAINT "evacuation_status_events_session_id_evacuation_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."evacuation_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evacuation_workers" ADD CONSTRAINT "evacuation_workers_session_id_evacuation_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."evacuation_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_inventory_item_id_inventory_items_id_fk" FOREIGN KEY ("inventory_item_id") REFERENCES "public"."inventory_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_escalated_by_users_id_fk" FOREIGN KEY ("escalated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "evacuation_sessions_one_running" ON "evacuation_sessions" USING btree ("site_id") WHERE "evacuation_sessions"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "evacuation_sessions_site_started_idx" ON "evacuation_sessions" USING btree ("site_id","started_at");--> statement-breakpoint
CREATE INDEX "evacuation_status_events_session_idx" ON "evacuation_status_events" USING btree ("session_id","id");--> statement-breakpoint
CREATE INDEX "evacuation_workers_inventory_idx" ON "evacuation_workers" USING btree ("inventory_item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "incidents_unique" ON "incidents" USING btree ("inventory_item_id","type","ts");--> statement-breakpoint
CREATE INDEX "incidents_site_ts_idx" ON "incidents" USING btree ("site_id","ts");