package org.getafix.core.registry;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegistryTest
{
  private record Member(String name, int value) implements Registry.Entry
  {
  }

  private final Registry<Member> registry =
      Registry.of("test member", List.of(new Member("b", 2), new Member("a", 1)));

  @Test
  void looksUpByNameAndKeepsRegistrationOrder()
  {
    assertEquals(1, registry.get("a").value());
    assertEquals(List.of("b", "a"), registry.names());
    assertTrue(registry.contains("b"));
    assertFalse(registry.find("c").isPresent());
  }

  @Test
  void anUnknownNameIsRejectedWithTheKnownOnes()
  {
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> registry.get("c"));
    assertEquals("unknown test member [c]; known: [b, a]", e.getMessage());
  }

  @Test
  void twoEntriesMayNotShareAName()
  {
    assertThrows(IllegalArgumentException.class,
                 () -> Registry.of("test member", List.of(new Member("a", 1), new Member("a", 2))));
  }
}
