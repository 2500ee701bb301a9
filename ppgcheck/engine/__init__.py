"""Load a policy pack, ground and solve batches of reports, decode and render rulings."""
