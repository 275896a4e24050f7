"""The search front-end: `ismcts`, a bot for every game that imagines the hidden cards (`determinise`).

It plugs in like any plugin (`plugin` registers the bot): the registry never imports it."""
