"""The plugin's tests use tapete's fixtures (tapete_variant, tapete_deal) and property checks."""

pytest_plugins = ["tapete.testing"]
