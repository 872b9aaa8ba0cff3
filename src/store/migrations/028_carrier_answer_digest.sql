-- A conditional refresh (issue 14): the digest of the carrier's answer (its response bodies, in
-- the order received) that a shipment's stored tracking state was last brought up to date with.
-- A lookup whose answer has the same digest has nothing new to apply: the worker then records only
-- when it asked and when to ask next, skipping the diff and the state write. Written in the same
-- statement as the answer's effects, so a digest never stands for an answer not yet applied.
ALTER TABLE shipments ADD COLUMN carrier_answer_digest text;
