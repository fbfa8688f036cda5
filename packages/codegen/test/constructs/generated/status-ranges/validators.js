
export const Receipt = fastFirst(fast0, validate20);
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://agentproto.dev/schemas/status-ranges/1/Receipt.schema.json","type":"object","required":["id"],"properties":{"id":{"type":"string"}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://agentproto.dev/schemas/status-ranges/1/Receipt.schema.json" */;
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.id === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.id !== undefined){
if(typeof data.id !== "string"){
const err1 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
}
else {
const err2 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}

export const Failure = fastFirst(fast2, validate21);
const schema32 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://agentproto.dev/schemas/status-ranges/1/Failure.schema.json","type":"object","required":["reason"],"properties":{"reason":{"type":"string"}}};

function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://agentproto.dev/schemas/status-ranges/1/Failure.schema.json" */;
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.reason === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "reason"},message:"must have required property '"+"reason"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.reason !== undefined){
if(typeof data.reason !== "string"){
const err1 = {instancePath:instancePath+"/reason",schemaPath:"#/properties/reason/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
}
else {
const err2 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
validate21.errors = vErrors;
return errors === 0;
}

export const placeOrder_responsedefault_0 = fastFirst(fast4, validate22);
const schema33 = {"type":"object","$id":"https://agentproto.dev/schemas/status-ranges/1/inline/placeOrder_responsedefault_0.json"};

function validate22(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://agentproto.dev/schemas/status-ranges/1/inline/placeOrder_responsedefault_0.json" */;
let vErrors = null;
let errors = 0;
if(!(data && typeof data == "object" && !Array.isArray(data))){
const err0 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
validate22.errors = vErrors;
return errors === 0;
}


function fastFirst(fast, full){
const validate = function(data, context){
if(fast(data)){
validate.errors = null;
return true;
}
const valid = full(data, context);
validate.errors = full.errors;
return valid;
};
validate.fast = fast;
validate.full = full;
return validate;
}
function fast0(data){
if(!((data && typeof data == "object" && !Array.isArray(data)))) return false;
{const v1 = data["id"];
if(v1 === undefined) return false;
if(!(typeof v1 == "string")) return false;
}
return true;
}
function fast2(data){
if(!((data && typeof data == "object" && !Array.isArray(data)))) return false;
{const v3 = data["reason"];
if(v3 === undefined) return false;
if(!(typeof v3 == "string")) return false;
}
return true;
}
function fast4(data){
if(!((data && typeof data == "object" && !Array.isArray(data)))) return false;
return true;
}
