package org.getafix.core.placement.tiering;

/** The tier a Historical behaves as (thesis §3.1.2, Fig 4.3): HOT nodes carry the most load, COLD the least. */
public enum Tier
{
  HOT,
  WARM,
  COLD
}
