package org.getafix.distribution;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import com.google.inject.Binding;
import com.google.inject.name.Named;
import com.google.inject.spi.Element;
import com.google.inject.spi.Elements;
import com.google.inject.spi.ProviderInstanceBinding;
import org.apache.druid.guice.JsonConfigProvider;
import org.apache.druid.initialization.DruidModule;
import org.apache.druid.java.util.emitter.core.Emitter;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What our Druid modules bind, read from the modules themselves as Druid loads them (ServiceLoader, then each module's
 * Guice bindings and Jackson modules), so that the tests check the code as it is and survive renames: the runtime
 * properties of every {@code JsonConfigProvider.bind(binder, prefix, X.class)}, the Jackson type names (rules,
 * balancer and selector strategies) and the names of the emitters.
 */
final class GetafixBindings
{
  private static final String OUR_PACKAGE = "org.getafix.";

  /** Module class names in the order ServiceLoader found them. */
  final List<String> modules = new ArrayList<>();
  /** Bound property prefix → the config class Druid's JsonConfigurator reads from it. */
  final TreeMap<String, Class<?>> configs = new TreeMap<>();
  /** Runtime property → the config class that reads it. */
  final TreeMap<String, Class<?>> properties = new TreeMap<>();
  /** Class → Jackson type name, for every subtype our modules register (a name may serve several base types). */
  final Map<Class<?>, String> jsonTypes = new LinkedHashMap<>();
  /** {@code @Named} emitters, as {@code druid.emitter.composing.emitters} names them. */
  final Set<String> emitters = new TreeSet<>();

  /** Our class registered under {@code name} as a subtype of {@code base}, or null. */
  Class<?> jsonType(Class<?> base, String name)
  {
    return jsonTypes.entrySet()
                    .stream()
                    .filter(t -> t.getValue().equals(name) && base.isAssignableFrom(t.getKey()))
                    .map(Map.Entry::getKey)
                    .findFirst()
                    .orElse(null);
  }

  static GetafixBindings load()
  {
    final GetafixBindings bindings = new GetafixBindings();
    for (ServiceLoader.Provider<DruidModule> provider : ServiceLoader.load(DruidModule.class).stream().toList()) {
      if (provider.type().getName().startsWith(OUR_PACKAGE)) {
        bindings.add(provider.get());
      }
    }
    return bindings;
  }

  private void add(DruidModule module)
  {
    modules.add(module.getClass().getName());
    for (Element element : Elements.getElements(module)) {
      if (element instanceof ProviderInstanceBinding
          && ((ProviderInstanceBinding<?>) element).getUserSuppliedProvider() instanceof JsonConfigProvider) {
        final JsonConfigProvider<?> provider =
            (JsonConfigProvider<?>) ((ProviderInstanceBinding<?>) element).getUserSuppliedProvider();
        final String prefix = (String) field(provider, "propertyBase");
        final Class<?> config = (Class<?>) field(provider, "classToProvide");
        configs.put(prefix, config);
        addProperties(prefix, config);
      }
      if (element instanceof Binding
          && ((Binding<?>) element).getKey().getTypeLiteral().getRawType() == Emitter.class
          && ((Binding<?>) element).getKey().getAnnotation() instanceof Named) {
        emitters.add(((Named) ((Binding<?>) element).getKey().getAnnotation()).value());
      }
    }
    for (Module jacksonModule : module.getJacksonModules()) {
      jacksonModule.setupModule(subtypeRecorder());
    }
  }

  /** A Jackson SetupContext that records registered subtypes and ignores everything else. */
  private Module.SetupContext subtypeRecorder()
  {
    return (Module.SetupContext) Proxy.newProxyInstance(
        getClass().getClassLoader(),
        new Class<?>[]{Module.SetupContext.class},
        (proxy, method, args) -> {
          if ("registerSubtypes".equals(method.getName()) && args[0] instanceof NamedType[]) {
            for (NamedType type : (NamedType[]) args[0]) {
              jsonTypes.put(type.getType(), type.getName());
            }
          }
          if ("registerSubtypes".equals(method.getName()) && args[0] instanceof Class[]) {
            for (Class<?> type : (Class<?>[]) args[0]) {
              final JsonTypeName name = type.getAnnotation(JsonTypeName.class);
              jsonTypes.put(type, name == null ? type.getSimpleName() : name.value());
            }
          }
          return method.getReturnType() == boolean.class ? false : null;
        }
    );
  }

  /**
   * Druid's JsonConfigurator turns {@code prefix.a.b=v} into {@code {"a": {"b": v}}}, so a nested config class of ours
   * adds a level and anything else (Period, String, numbers, maps, enums) is a leaf property.
   */
  private void addProperties(String prefix, Class<?> type)
  {
    for (Property property : jsonProperties(type)) {
      final String key = prefix + "." + property.name;
      if (isNestedConfig(property.type)) {
        addProperties(key, property.type);
      } else {
        properties.put(key, type);
      }
    }
  }

  /** The properties Jackson reads into {@code type}: annotated fields (also inherited) and creator parameters. */
  static List<Property> jsonProperties(Class<?> type)
  {
    final List<Property> found = new ArrayList<>();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field field : c.getDeclaredFields()) {
        final JsonProperty annotation = field.getAnnotation(JsonProperty.class);
        if (annotation != null && !Modifier.isStatic(field.getModifiers())) {
          found.add(new Property(annotation.value().isEmpty() ? field.getName() : annotation.value(), field.getType()));
        }
      }
    }
    for (Constructor<?> constructor : type.getDeclaredConstructors()) {
      final JsonCreator creator = constructor.getAnnotation(JsonCreator.class);
      if (creator == null) {
        continue;
      }
      final List<Parameter> unannotated = new ArrayList<>();
      for (Parameter parameter : constructor.getParameters()) {
        if (!parameter.isAnnotationPresent(JsonProperty.class) && !parameter.isAnnotationPresent(JacksonInject.class)) {
          unannotated.add(parameter);
        }
      }
      if (unannotated.size() == 1
          && (creator.mode() == JsonCreator.Mode.DELEGATING || constructor.getParameterCount() == 1)) {
        // A delegating creator: the whole JSON object binds to that one parameter, so its properties are this type's.
        if (unannotated.get(0).getType().getName().startsWith(OUR_PACKAGE)) {
          found.addAll(jsonProperties(unannotated.get(0).getType()));
        }
        continue;
      }
      for (Parameter parameter : constructor.getParameters()) {
        final JsonProperty annotation = parameter.getAnnotation(JsonProperty.class);
        if (annotation != null && !annotation.value().isEmpty()) {
          found.add(new Property(annotation.value(), parameter.getType()));
        }
      }
    }
    return found;
  }

  private static boolean isNestedConfig(Class<?> type)
  {
    return type.getName().startsWith(OUR_PACKAGE) && !type.isEnum() && !jsonProperties(type).isEmpty();
  }

  /** Druid's JsonConfigProvider keeps its prefix and class private; a rename there fails this test loudly. */
  private static Object field(Object target, String name)
  {
    try {
      final Field field = target.getClass().getDeclaredField(name);
      field.setAccessible(true);
      return field.get(target);
    }
    catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Druid's JsonConfigProvider no longer has a field [" + name + "]", e);
    }
  }

  static final class Property
  {
    final String name;
    final Class<?> type;

    Property(String name, Class<?> type)
    {
      this.name = name;
      this.type = type;
    }
  }
}
