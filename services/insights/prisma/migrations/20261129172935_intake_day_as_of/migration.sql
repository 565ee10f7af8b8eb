-- AlterTable
ALTER TABLE "intake_day" ADD COLUMN     "as_of" TIMESTAMPTZ(6) NOT NULL DEFAULT '-infinity'::timestamptz,
ADD COLUMN     "logged" BOOLEAN NOT NULL DEFAULT true;
