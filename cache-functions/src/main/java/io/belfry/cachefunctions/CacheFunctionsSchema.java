package io.belfry.cachefunctions;

import org.infinispan.protostream.FileDescriptorSource;
import org.infinispan.protostream.ProtobufTagMarshaller;
import org.infinispan.protostream.SerializationContext;
import org.infinispan.protostream.SerializationContextInitializer;

/**
 * Registers {@link ConditionalWrite} with a ProtoStream marshaller: a message without fields, read
 * back as the one instance. Found through the ServiceLoader: by embedded Infinispan when no
 * initializer is configured, and by WildFly in the modules a cache container names.
 */
public final class CacheFunctionsSchema implements SerializationContextInitializer {

  static final String PACKAGE = "belfry.cachefunctions";
  static final String CONDITIONAL_WRITE = PACKAGE + ".ConditionalWrite";

  @Override
  public void registerSchema(SerializationContext context) {
    context.registerProtoFiles(
        FileDescriptorSource.fromString(
            "belfry-cache-functions.proto",
            "package " + PACKAGE + ";\nmessage ConditionalWrite {}\n"));
  }

  @Override
  public void registerMarshallers(SerializationContext context) {
    context.registerMarshaller(new ConditionalWriteMarshaller());
  }

  private static final class ConditionalWriteMarshaller
      implements ProtobufTagMarshaller<ConditionalWrite> {

    @Override
    public Class<? extends ConditionalWrite> getJavaClass() {
      return ConditionalWrite.class;
    }

    @Override
    public String getTypeName() {
      return CONDITIONAL_WRITE;
    }

    @Override
    public ConditionalWrite read(ReadContext context) throws java.io.IOException {
      // no fields of its own; skip any a later version might add
      while (!context.getReader().isAtEnd()) {
        int tag = context.getReader().readTag();
        if (tag == 0 || !context.getReader().skipField(tag)) {
          break;
        }
      }
      return ConditionalWrite.INSTANCE;
    }

    @Override
    public void write(WriteContext context, ConditionalWrite function) {
      // no fields
    }
  }
}
