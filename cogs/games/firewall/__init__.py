"""firewall: its Discord prompts, channel posts and pictures.

- ``ui``: ``UI``, the GameUI the cogs use (``cogs.games.get_ui("firewall")``), wiring the modules below;
- ``prompts``: the private prompts' entry points, the table from payload head to handler and the
  custom_id grammar; the stock order and the Larceny and Recycle follow-ups;
- ``turn``: the turn prompt (bet, spells, Clone's target, the Cast confirmation) and its handlers;
- ``screen``: what every prompt screen shares (the typed view and decision, the header, buttons);
- ``posts``: the channel post after a resolution, /rules fields and /card lookups;
- ``labels``: the colour, spell emoji and labels both prompts and posts show;
- ``art``: the bridge picture and emoji strip (Pillow).
"""
