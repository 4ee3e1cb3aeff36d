-- An expense's own currency and exchange rate, several payers and real splits
-- (docs/API.md §Money). Every new column may be NULL, meaning what an expense meant before:
-- the plan's currency, paid_by paying all of it, and an EQUAL split among split_among (or
-- everyone). (A deleted time block's snapshot, restored by jsonb_populate_recordset, leaves the
-- columns it did not know NULL.)
-- +goose Up
ALTER TABLE expenses
    ADD COLUMN currency text,          -- ISO 4217, never the plan's own (then NULL)
    ADD COLUMN exchange_rate numeric,  -- units of the plan's currency per unit of currency
    ADD COLUMN payers jsonb,           -- [{plan_member_id, amount}]: several payers, amounts in minor units of currency
    ADD COLUMN split_mode text,        -- EQUAL (NULL), EXACT or SHARES
    ADD COLUMN split_parts jsonb,      -- EXACT: [{plan_member_id, amount}]; SHARES: [{plan_member_id, shares}]
    ADD CONSTRAINT expenses_rate CHECK ((currency IS NULL) = (exchange_rate IS NULL) AND exchange_rate > 0),
    ADD CONSTRAINT expenses_split_mode CHECK (split_mode IN ('EQUAL', 'EXACT', 'SHARES'));

-- +goose Down
ALTER TABLE expenses
    DROP COLUMN currency,
    DROP COLUMN exchange_rate,
    DROP COLUMN payers,
    DROP COLUMN split_mode,
    DROP COLUMN split_parts;
